import type { Rule } from 'eslint';
export declare const layersRule: Rule.RuleModule;
export declare const tiersRule: Rule.RuleModule;
export declare const CORE_TIERS: string[][];
export declare const RENDERER_TIERS: string[][];
export declare const SERVER_TIERS: string[][];
export declare function layerOf(relativePath: string): string | undefined;
declare const plugin: { rules: { layers: Rule.RuleModule; tiers: Rule.RuleModule; 'no-cycles': Rule.RuleModule } };
export default plugin;
