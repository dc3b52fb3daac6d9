/** Adds `value` to the list `map` keeps under `key`, in place (a list of its own for a new key): no copy per append. */
export const appendTo = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};
