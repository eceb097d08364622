// Small hooks the views share: load something (and reload on demand or when the state changed), poll while shown.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { onStateChanged, onTokenNeeded } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` now, again whenever `deps` change, the state changed or the token was entered, and on reload(). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (d) => live && (setData(d), setError(null), setLoading(false)),
      (e: Error) => live && (setError(e.message), setLoading(false)),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  useEffect(() => {
    const offChange = onStateChanged(reload);
    const offToken = onTokenNeeded(reload);
    return () => {
      offChange();
      offToken();
    };
  }, [reload]);
  return { data, error, loading, reload };
}

/** Calls `fn` every `ms` while `active` (and the tab is visible); one call at a time, the next one `ms` after the last ended. */
export function usePoll(fn: () => Promise<void>, ms: number, active = true): void {
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (stopped) return;
      if (document.visibilityState !== 'hidden') await latest.current().catch(() => undefined);
      if (!stopped) timer = setTimeout(tick, ms);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [ms, active]);
}

/** A message shown after an action: what happened, or why it was refused. */
export function useNotice(): [{ text: string; error: boolean } | null, (text: string, error?: boolean) => void] {
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const show = useCallback((text: string, error = false) => setNotice({ text, error }), []);
  return [notice, show];
}
