/**
 * Sets of data classes stored as `,3,17,` strings of dictionary codes. With the commas on both
 * sides, `instr(list, ',17,')` is an exact membership test (no code is a substring of another
 * once delimited), which keeps every filter inside one indexed SQL statement.
 */
export function codeList(codes: Iterable<number>): string {
  let text = ',';
  for (const code of codes) text += `${code},`;
  return text;
}

export function parseCodeList(text: string): number[] {
  const codes: number[] = [];
  for (const part of text.split(',')) if (part !== '') codes.push(Number(part));
  return codes;
}

/**
 * Calls `visit` with each code of a list, without allocating: counts over thousands of rows
 * parse tens of thousands of codes.
 */
export function forEachCode(text: string, visit: (code: number) => void): void {
  let code = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44 /* , */) {
      if (code >= 0) visit(code);
      code = -1;
    } else code = (code < 0 ? 0 : code * 10) + (c - 48);
  }
  if (code >= 0) visit(code);
}

/** The `instr` needle for one code. */
export function codeNeedle(code: number): string {
  return `,${code},`;
}

export interface ClassRef {
  key: string;
  code: number;
}

/**
 * The classes still unresolved for one account: an intent in the outbox (by class key) wins;
 * otherwise the service's confirmed state (by code). In the breach's own class order.
 */
export function unresolvedCodesOf(classes: readonly ClassRef[], confirmed: ReadonlySet<number> | undefined, intents: ReadonlyMap<string, boolean> | undefined): number[] {
  const codes: number[] = [];
  for (const { key, code } of classes) {
    const intent = intents?.get(key);
    const resolved = intent ?? confirmed?.has(code) ?? false;
    if (!resolved) codes.push(code);
  }
  return codes;
}
