/**
 * From compiled artifacts back to the workspace's Ralph sources: where a contract, its events,
 * functions, constants and enums are declared, and where its checks and emits are. Built from (path, text)
 * pairs like the artifact registry, so the glue decides where the files come from and tests feed strings.
 *
 * Members are looked up through `extends`/`implements`, because a contract's method or error code is
 * often declared in an abstract parent in another file.
 */
import {
  scanRalph,
  type RalphCheckSite,
  type RalphDecl,
  type RalphDeclKind,
  type RalphEmitSite,
  type RalphScan,
} from './scanner';

export interface SourceText {
  readonly path: string;
  readonly text: string;
}

/** A declaration or site with the file it is in. */
export type Located<T> = T & { readonly path: string };

export class RalphSourceMap {
  private readonly files = new Map<string, RalphScan>();
  private readonly contracts = new Map<string, Located<RalphDecl>>();

  private constructor(files: Iterable<SourceText>) {
    // Sorted so a duplicate name resolves the same way whatever order the files were listed in.
    const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const f of sorted) {
      const scan = scanRalph(f.text);
      this.files.set(f.path, scan);
      for (const d of scan.decls) {
        if (d.kind === 'contract' && !this.contracts.has(d.name))
          this.contracts.set(d.name, { ...d, path: f.path });
      }
    }
  }

  static build(files: Iterable<SourceText>): RalphSourceMap {
    return new RalphSourceMap(files);
  }

  get paths(): string[] {
    return [...this.files.keys()];
  }

  scanOf(path: string): RalphScan | undefined {
    return this.files.get(path);
  }

  contract(name: string): Located<RalphDecl> | undefined {
    return this.contracts.get(name);
  }

  /** The contract and its ancestors, nearest first, each once (cycles in broken code are cut). */
  lineage(name: string): string[] {
    const out: string[] = [];
    const visit = (n: string) => {
      if (out.includes(n)) return;
      out.push(n);
      for (const p of this.contracts.get(n)?.parents ?? []) visit(p);
    };
    visit(name);
    return out;
  }

  private *all<T extends { container?: string }>(
    pick: (scan: RalphScan) => readonly T[],
  ): Generator<Located<T>> {
    for (const [path, scan] of this.files) for (const x of pick(scan)) yield { ...x, path };
  }

  /**
   * A member of `contract` (or of an ancestor) by kind and name. Enum fields are named `Enum.Field`;
   * constants, enums and enum fields also fall back to the file-level (global) ones.
   */
  member(contract: string, kind: RalphDeclKind, name: string): Located<RalphDecl> | undefined {
    const lineage = this.lineage(contract);
    const [enumName, fieldName] = kind === 'enumField' ? name.split('.') : [undefined, name];
    const matches = (d: RalphDecl) =>
      d.kind === kind &&
      (kind === 'enumField' ? d.container === enumName && d.name === fieldName : d.name === name);
    const decls = [...this.all((s) => s.decls)];
    if (kind === 'enumField') {
      // An enum field's container is its enum; its owner is the contract (none for a global enum).
      for (const c of lineage) {
        const found = decls.find((d) => matches(d) && d.owner === c);
        if (found) return found;
      }
      return decls.find((d) => matches(d) && d.owner === undefined);
    }
    for (const c of lineage) {
      const found = decls.find((d) => d.container === c && matches(d));
      if (found) return found;
    }
    if (kind === 'constant' || kind === 'enum')
      return decls.find((d) => d.container === undefined && matches(d));
    return undefined;
  }

  /** Every check site of `contract` and its ancestors. */
  checkSites(contract: string): Located<RalphCheckSite>[] {
    const lineage = new Set(this.lineage(contract));
    return [...this.all((s) => s.checks)].filter(
      (c) => c.container !== undefined && lineage.has(c.container),
    );
  }

  /** Every `emit` of `contract` and its ancestors, optionally of one event. */
  emitSites(contract: string, event?: string): Located<RalphEmitSite>[] {
    const lineage = new Set(this.lineage(contract));
    return [...this.all((s) => s.emits)].filter(
      (e) =>
        e.container !== undefined && lineage.has(e.container) && (event === undefined || e.event === event),
    );
  }
}
