// What the Timeline tells the other sections: the span brushed on a chart (Requests and State show only what falls in
// it) and what a click on a point asks to open (a request in Requests, a run in State). One small store, no framework.
import { useEffect, useState } from 'preact/hooks';

/** A span of the mock clock, in ms: `from` included, `to` excluded. */
export interface Span {
  from: number;
  to: number;
}

/** Something to open in another section. */
export type Opening = { section: 'requests'; request: number } | { section: 'state'; project: string; run: string };

type Listener = () => void;
const spanListeners = new Set<Listener>();
const openListeners = new Set<(o: Opening) => void>();
let current: Span | null = null;
let pending: Opening | null = null;

/** Sets (or clears, with null) the span every section filters on. */
export function setSpan(span: Span | null): void {
  current = span && span.to > span.from ? span : null;
  for (const fn of spanListeners) fn();
}

/** The span, kept current in a component. */
export function useSpan(): Span | null {
  const [span, set] = useState(current);
  useEffect(() => {
    const fn = () => set(current);
    spanListeners.add(fn);
    fn();
    return () => void spanListeners.delete(fn);
  }, []);
  return span;
}

/** True when an ISO time (or ms) falls in the span (always, without one). */
export const inSpan = (span: Span | null, at: string | number): boolean => {
  if (!span) return true;
  const ms = typeof at === 'number' ? at : Date.parse(at);
  return ms >= span.from && ms < span.to;
};

/** Asks the page to show `o`: the page switches section, and the section (mounted then if it was not) takes it. */
export function open(o: Opening): void {
  pending = o;
  for (const fn of openListeners) fn(o);
}

/** Listens for openings; a section that mounts after the request takes the pending one with `take`. */
export function onOpen(fn: (o: Opening) => void): () => void {
  openListeners.add(fn);
  return () => void openListeners.delete(fn);
}

/** The opening meant for `section` not yet taken (a section mounted by the switch reads it once). */
export function take<S extends Opening['section']>(section: S): Extract<Opening, { section: S }> | null {
  if (pending?.section !== section) return null;
  const o = pending as Extract<Opening, { section: S }>;
  pending = null;
  return o;
}

/** The span in words, as the banners show it. */
export const spanText = (s: Span): string =>
  `${new Date(s.from).toISOString().replace('T', ' ').slice(0, 19)} – ${new Date(s.to).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
