// A module loader for running the TypeScript source directly (worker threads in the tests):
// `./x.js` imported from a .ts module resolves to `./x.ts` when that exists, and .ts modules
// are transpiled one by one with the project's own TypeScript (types are not checked here).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, URL } from 'node:url';
import ts from 'typescript';

export async function resolve(specifier, context, next) {
  if (
    context.parentURL?.endsWith('.ts') &&
    specifier.startsWith('.') &&
    specifier.endsWith('.js')
  ) {
    const source = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
    if (existsSync(fileURLToPath(source))) return { url: source.href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const { outputText } = ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      sourceMap: false,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
