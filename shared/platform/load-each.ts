/**
 * Every entry of a record of loaders (each an `import()` of one module:
 * a provider's adapter or client), loaded at once: what the tests use, where
 * the functions load only the entry a request needs. A module is evaluated
 * once however often `import()` asks for it, so nothing here is cached.
 */
export async function loadEach<K extends string, V>(
  loaders: Record<K, () => Promise<V>>,
): Promise<Record<K, V>> {
  const names = Object.keys(loaders) as K[];
  const loaded = await Promise.all(names.map((name) => loaders[name]()));
  return Object.fromEntries(names.map((name, index) => [name, loaded[index]])) as Record<K, V>;
}
