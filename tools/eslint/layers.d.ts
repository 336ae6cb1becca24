import type { Rule } from 'eslint';
export declare const layersRule: Rule.RuleModule;
export declare function layerOf(relativePath: string): string | undefined;
declare const plugin: { rules: { layers: Rule.RuleModule } };
export default plugin;
