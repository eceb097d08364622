// The shapes every probe shares: one side (the target or the in-process mock) with its own credentials and ids, a
// request, a probe's outcome, and the helpers that send a request to a side and read its answer.
import type { Answer, Difference } from '../compare/index.js';
import { textTooDeepAt } from '../json-depth.js';

/** What one side knows: its own credentials and projects, and the records found on them before the probes ran. */
export interface Side {
  name: 'mock' | 'target';
  /** Sends one request (a path with its query) and answers it; a transport failure rejects. */
  send(req: ProbeRequest): Promise<Answer>;
  token?: string;
  adminKey?: string;
  project?: string;
  disposable?: string;
  found: Found;
}

/** Records of one project seen on one side (ids differ between sides; only their existence is compared). */
export interface Found {
  userId?: string;
  approvalId?: string;
  connectionName?: string;
  /** Newest first. */
  releaseIds: string[];
  runIds: string[];
}

export interface ProbeRequest {
  method: string;
  /** The path with its query string. */
  path: string;
  headers?: Record<string, string>;
  /** The raw body text, sent as application/json unless a content-type header says otherwise. */
  body?: string;
}

/** One probe of the catalogue. `request` builds it for one side, or says why that side cannot take it. */
export interface Probe {
  name: string;
  operation: string;
  /** The catalogue's section: auth, malformed, random-id, read, order, walk, diff, write. */
  group: string;
  /** The request's inputs are the probe's own: validation items must echo the same `input`. */
  ownInput?: boolean;
  /** A write: runs only with --write, on --disposable-project; `says` is what it will do. */
  says?: string;
  request?(side: Side): ProbeRequest | string;
  /** A probe of several requests (a cursor walk, a write that first finds its record): compares by itself. */
  run?(mock: Side, target: Side): Promise<ProbeVerdict>;
}

/** What a probe found, before differences seen in earlier probes are folded away. */
export type ProbeVerdict =
  | { outcome: 'compared'; differences: Difference[]; compatible: Difference[]; warnings?: Difference[]; statuses: [number, number] }
  | { outcome: 'not comparable'; reason: string };

/** One line of the report. `repeats` are differences an earlier probe already reported (named there). */
export interface ProbeResult {
  probe: string;
  operation: string;
  group: string;
  request: string;
  outcome: 'same' | 'different' | 'not comparable';
  statuses?: { mock: number; target: number };
  differences: Difference[];
  compatible: Difference[];
  /** Optional fields the target dropped, met first here. */
  warnings: Difference[];
  repeats: { field: string; first: string }[];
  reason?: string;
}

/**
 * One cause: the same field with the same mock and target values, wherever it showed. `drift` breaks the contract;
 * `warning` is an optional field the mock sends and the target dropped.
 */
export interface DriftFinding {
  level: 'drift' | 'warning';
  field: string;
  mock: unknown;
  target: unknown;
  /** The operations it showed in, in the order first met. */
  operations: string[];
  /** The probes it showed in (the first reports it; the others name it under `repeats`). */
  probes: string[];
}

export const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** Bearer credentials of a side, when it has a token. */
export const bearer = (side: Side): Record<string, string> => (side.token ? { Authorization: `Bearer ${side.token}` } : {});

/** Bytes of an answer body read at most: a target answering more is cut there (and compared as cut). */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Reads an answer: JSON when it parses (and nests no deeper than the JSON limit), else its text; at most 4 MiB. */
export async function readAnswer(res: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  if (res.body) {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - size));
      size += chunk.length;
      if (size >= MAX_ANSWER_BYTES) {
        cut = size > MAX_ANSWER_BYTES;
        break;
      }
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown = cut ? `(an answer of more than ${MAX_ANSWER_BYTES} bytes)` : text;
  if (!cut && textTooDeepAt(text) === -1) {
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: kept as text, compared as such
    }
  }
  return { status: res.status, headers, body };
}

/** Builds a fetch init for a probe request (JSON body unless the probe set a content type). */
export function initOf(req: ProbeRequest): RequestInit {
  const headers = { ...(req.body !== undefined ? JSON_HEADERS : {}), ...req.headers };
  return { method: req.method, headers, body: req.body };
}
