import type { Rule } from 'eslint';
export declare function importsOf(file: string, text: string): string[];
export declare function cyclesIn(graph: ReadonlyMap<string, readonly string[]>): string[][];
export declare function diskImports(): (file: string) => string[] | undefined;
export declare function createCyclesRule(readImports?: (file: string) => readonly string[] | undefined): Rule.RuleModule;
export declare const cyclesRule: Rule.RuleModule;
