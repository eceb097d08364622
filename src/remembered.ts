// Values made from short text keys and remembered: bounded in count and key length, and emptied at the bound.

/**
 * `make` of a key, remembered while at most `keys` are held. A key longer than `keyLength` is made each time and never
 * held; the key past `keys` empties the table first. The memory does not grow with the traffic, and a table that a scan
 * of many keys keeps emptying only costs those keys their `make`.
 */
export function remembered<V>(make: (key: string) => V, limits: { keys: number; keyLength: number }): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const made = make(key);
    if (key.length <= limits.keyLength) {
      if (known.size >= limits.keys) known.clear();
      known.set(key, made);
    }
    return made;
  };
}
