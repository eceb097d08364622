// Builds the desired state a source bundle describes: checked assets, a YAML manifest, souls resolved from assets.
import { createRequire } from 'node:module';
import { ValidationError, type ValidationItem } from '../../errors.js';
import type { Bundle, DesiredState } from '../../schemas/index.js';
import { sha256Hex } from './fingerprint.js';
import { MAX_JSON_DEPTH, jsonValueTooDeep } from '../../json-depth.js';
import { normalizeDesiredState } from './normalize.js';

const BUNDLE_LOC = ['body', 'bundle'];
const MANIFEST_LOC = [...BUNDLE_LOC, 'manifest'];

/** Every asset's sha256 must match its content and every path must be unique; returns content by path. */
function checkAssets(assets: Bundle['assets']): Map<string, string> {
  const byPath = new Map<string, string>();
  const items: ValidationItem[] = [];
  assets.forEach((asset, i) => {
    const at = [...BUNDLE_LOC, 'assets', i];
    const actual = sha256Hex(asset.content);
    if (asset.sha256 !== actual) {
      items.push({ loc: [...at, 'sha256'], msg: `sha256 does not match the SHA-256 of content (${actual})`, type: 'value_error', input: asset.sha256 });
    }
    if (byPath.has(asset.path)) items.push({ loc: [...at, 'path'], msg: `Duplicate asset path '${asset.path}'`, type: 'value_error', input: asset.path });
    else byPath.set(asset.path, asset.content);
  });
  if (items.length > 0) throw new ValidationError(items);
  return byPath;
}

// yaml is loaded on the first bundle plan, not at start-up: it is about 20 ms of the CLI's start time (bench g).
const require = createRequire(import.meta.url);
let yaml: typeof import('yaml') | undefined;
const parseYaml = (src: string, options: import('yaml').ParseOptions & import('yaml').SchemaOptions & import('yaml').DocumentOptions): unknown =>
  (yaml ??= require('yaml') as typeof import('yaml')).parse(src, options);

function parseManifest(manifest: string): unknown {
  let value: unknown;
  try {
    // Core schema (YAML 1.2): JSON is valid input, no timestamps or custom tags become non-JSON values.
    value = parseYaml(manifest, { schema: 'core', prettyErrors: false, logLevel: 'error' });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new ValidationError([{ loc: MANIFEST_LOC, msg: `Manifest is not valid YAML: ${msg}`, type: 'value_error', input: null }]);
  }
  // The manifest is a document inside the body: the body's nesting limit holds for it too.
  if (jsonValueTooDeep(value))
    throw new ValidationError([{ loc: MANIFEST_LOC, msg: `Manifest nested deeper than ${MAX_JSON_DEPTH} levels`, type: 'value_error', input: null }]);
  return value;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Replaces each agent's `soul_asset: <path>` with `soul: <asset content>`; returns a new manifest value. */
function resolveSoulAssets(manifest: unknown, assets: Map<string, string>): unknown {
  if (!isObject(manifest) || !Array.isArray(manifest.agents)) return manifest;
  const items: ValidationItem[] = [];
  const agents = manifest.agents.map((agent: unknown, i: number) => {
    if (!isObject(agent) || !('soul_asset' in agent)) return agent;
    const { soul_asset: path, ...rest } = agent;
    const loc = [...MANIFEST_LOC, 'agents', i, 'soul_asset'];
    if (typeof path !== 'string') items.push({ loc, msg: 'Input should be a valid string', type: 'string_type', input: path ?? null });
    else if ('soul' in agent) items.push({ loc, msg: 'Give either soul or soul_asset, not both', type: 'value_error', input: path });
    else if (!assets.has(path)) items.push({ loc, msg: `No asset with path '${path}'`, type: 'value_error', input: path });
    else return { ...rest, soul: assets.get(path) };
    return agent;
  });
  if (items.length > 0) throw new ValidationError(items);
  return { ...manifest, agents };
}

/** The normalized desired state of a bundle; every failure is a 422 located under ['body', 'bundle', ...]. */
export function stateFromBundle(bundle: Bundle): DesiredState {
  const assets = checkAssets(bundle.assets);
  const manifest = resolveSoulAssets(parseManifest(bundle.manifest), assets);
  return normalizeDesiredState(manifest, MANIFEST_LOC);
}
