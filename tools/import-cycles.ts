/**
 * `npm run lint` (after ESLint): no import cycle among the modules of lib/, functions/,
 * infra/, local/ and console/src. A cycle makes evaluation order matter (one module of the
 * circle runs with the others' exports still undefined) and ties modules that should change
 * apart. Only imports that exist at run time count: `import type`, `export type` and imports
 * whose every name is a type are erased by the compiler, and a dynamic `import()` runs later,
 * when every module is evaluated. Each cycle is printed as a path, and the run fails.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOTS = ['lib', 'functions', 'infra', 'local', 'console/src'];
const EXTENSIONS = ['.ts', '.tsx'];

/** Every source file under the roots (tests and declarations left out). */
function sourceFiles(root: string, directory: string): string[] {
  const full = path.join(root, directory);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(root, relative);
    return EXTENSIONS.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith('.d.ts') && !/\.test\.tsx?$/.test(entry.name)
      ? [relative]
      : [];
  });
}

/** The file a relative specifier names, or undefined for a package or an asset. */
function resolve(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.join(path.dirname(from), specifier).replace(/\.js$/, '');
  const candidates = [...EXTENSIONS.map((extension) => `${base}${extension}`), ...EXTENSIONS.map((extension) => path.join(base, `index${extension}`))];
  return candidates.find((candidate) => existsSync(path.join(root, candidate)) && statSync(path.join(root, candidate)).isFile());
}

/** The specifiers a module imports or re-exports at run time. */
export function runtimeImports(source: string, fileName = 'module.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      const onlyTypes =
        clause !== undefined &&
        clause.name === undefined &&
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.exportClause;
      const onlyTypes =
        statement.isTypeOnly ||
        (clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly));
      if (!onlyTypes) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

/** The import graph of the roots: file -> the files it imports at run time. */
export function importGraph(root: string, roots: readonly string[] = ROOTS): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap((directory) => sourceFiles(root, directory))) {
    const imports = runtimeImports(readFileSync(path.join(root, file), 'utf8'), file).flatMap((specifier) => resolve(root, file, specifier) ?? []);
    graph.set(file, [...new Set(imports)]);
  }
  return graph;
}

/** The strongly connected components of more than one module, or of one that imports itself (Tarjan). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const found = cycles(importGraph(process.cwd()));
  if (found.length === 0) {
    process.stdout.write(`import cycles: none in ${ROOTS.join(', ')}\n`);
  } else {
    console.error(`import cycles: ${found.length}, each a set of modules that import each other at run time (type-only imports do not count):`);
    for (const component of found) console.error(`  ${component.join('\n    ')}`);
    process.exitCode = 1;
  }
}
