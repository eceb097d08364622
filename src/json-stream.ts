// A body streamed in chunks as it is produced, typed by what its text spells, so a handler that streams is held to its schema too.
import type { Readable } from 'node:stream';

declare const spells: unique symbol;

/** A stream of a T's text: its JSON for a JSON body, T itself for a text body. The type exists at compile time only. */
export type Streamed<T> = Readable & { readonly [spells]: T };

/** Names what `stream`'s chunks spell: called only by the code that writes those chunks. */
export const streamed = <T>(stream: Readable): Streamed<T> => stream as Streamed<T>;
