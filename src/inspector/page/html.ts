// htm bound to Preact's h: templates as tagged strings, no JSX build step.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);

/** A timestamp as the page shows it: date and time to the second, in UTC like the mock clock. */
export const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '');

/** Pretty JSON for a <pre>. */
export const pretty = (value: unknown): string => JSON.stringify(value, null, 2) ?? 'null';
