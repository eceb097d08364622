// Response bodies sent as ready JSON text: a record's view is serialized once and reused while that (immutable) record is current.
/** A JSON body already serialized; the pipeline sends the text as is (application/json). */
export class JsonText<T = unknown> {
  /** The type of the value serialized (compile time only: a handler's answer is checked against its schema). */
  declare readonly of?: T;
  constructor(readonly text: string) {}
}

/**
 * `view` serialized per record. Stored records are immutable (a write replaces the object), so the
 * text stays right for as long as the record is the current one. At most `limit` texts are kept
 * (oldest dropped first): memory stays bounded whatever the size of the state.
 */
export function cachedJson<R extends object, V>(view: (record: R) => V, limit = 256): (record: R) => JsonText<V> {
  const cache = new Map<R, JsonText<V>>();
  return (record) => {
    let hit = cache.get(record);
    if (hit === undefined) {
      hit = new JsonText(JSON.stringify(view(record)));
      if (cache.size >= limit) cache.delete(cache.keys().next().value as R);
      cache.set(record, hit);
    }
    return hit;
  };
}
