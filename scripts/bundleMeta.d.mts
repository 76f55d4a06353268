export interface HostOutput {
  readonly bytes: number;
  readonly entryPoint?: string;
  readonly inputs: readonly string[];
  readonly imports: readonly { readonly file: string; readonly kind: string }[];
}
export type HostOutputs = Record<string, HostOutput>;
export function readHostMeta(outDir: string): HostOutputs;
export function staticClosure(outputs: HostOutputs, entry: string): string[];
export function activationFiles(outputs: HostOutputs): { files: string[]; bytes: number };
export function lazyEntries(outputs: HostOutputs): { file: string; entryPoint: string; bytes: number }[];
export function sourcesInTwoFiles(outputs: HostOutputs): { input: string; files: string[] }[];
