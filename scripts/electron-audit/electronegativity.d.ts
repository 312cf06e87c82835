// The parts of Electronegativity's documented programmatic API (README "Programmatically") we use;
// the package ships no types.
declare module '@doyensec/electronegativity' {
  interface Level {
    readonly value: number;
    readonly name: string;
  }
  export interface ElectronegativityIssue {
    readonly id: string;
    readonly file: string;
    readonly location: { readonly line: number; readonly column: number };
    readonly sample: string;
    readonly description: string;
    readonly severity: Level;
    readonly confidence: Level;
    readonly manualReview: boolean;
  }
  export interface ElectronegativityResult {
    readonly globalChecks: number;
    readonly atomicChecks: number;
    readonly errors: readonly { readonly file: string; readonly message: string; readonly tolerable: boolean }[];
    readonly issues: readonly ElectronegativityIssue[];
  }
  export interface ElectronegativityOptions {
    readonly input: string;
    readonly isRelative?: boolean;
    readonly excludeFromScan?: readonly string[];
    readonly electronVersionOverride?: string;
    readonly parserPlugins?: readonly string[];
  }
  function run(options: ElectronegativityOptions): Promise<ElectronegativityResult>;
  export = run;
}
