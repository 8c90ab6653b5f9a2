/**
 * The JSON text of a value with every object's keys sorted, so that equal
 * values render, and hash, alike: a request's fingerprint (Idempotency-Key),
 * a provider payload's event id. What JSON.stringify leaves out is left out
 * (an `undefined` member; an `undefined` array element is `null`, as is a
 * number that is not finite). Iterative, with its own stack of work, so no
 * nesting of the value can exhaust the call stack: a too-deep body is refused
 * at the edges, but a payload that reaches a queue's consumer some other way
 * must still hash rather than throw.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  // Popped last first: literal text, or a value still to render.
  const work: ({ text: string } | { value: unknown })[] = [{ value }];
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    if ('text' in next) {
      parts.push(next.text);
      continue;
    }
    const current = next.value;
    if (Array.isArray(current)) {
      work.push({ text: ']' });
      for (let index = current.length - 1; index >= 0; index--) {
        work.push({ value: current[index] });
        if (index > 0) work.push({ text: ',' });
      }
      work.push({ text: '[' });
    } else if (current !== null && typeof current === 'object') {
      const members = current as Record<string, unknown>;
      const names = Object.keys(members)
        .filter((name) => members[name] !== undefined)
        .sort();
      work.push({ text: '}' });
      for (let index = names.length - 1; index >= 0; index--) {
        const name = names[index]!;
        work.push({ value: members[name] });
        work.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(name)}:` });
      }
      work.push({ text: '{' });
    } else {
      parts.push(JSON.stringify(current) ?? 'null');
    }
  }
  return parts.join('');
}
