import { build, type Metafile } from 'esbuild';
import { cp, mkdir, readFile, stat, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_FILE, esbuildOptions } from '../../../lib/constructs/bundling';
import { handlerEntry } from '../../../lib/constructs/function-factory';
import { FUNCTIONS, type FunctionName } from '../../../lib/function-wiring';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Bundle {
  /** The bundle file (`index.mjs`). */
  file: string;
  bytes: number;
  metafile: Metafile;
}

/**
 * Bundles a function's entry with the stack's own esbuild options (lib/constructs/bundling.ts),
 * as `cdk synth` does, into `outDir/index.mjs`.
 */
export async function bundleFunction(name: FunctionName, outDir: string): Promise<Bundle> {
  const file = join(outDir, BUNDLE_FILE);
  const result = await build(esbuildOptions(handlerEntry(name), file, FUNCTIONS[name].nodeModules));
  return { file, bytes: (await stat(file)).size, metafile: result.metafile };
}

/** A package and every package it depends on, as installed in the repository. */
async function withDependencies(name: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const manifest = JSON.parse(await readFile(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dependency of Object.keys(manifest.dependencies ?? {})) await withDependencies(dependency, seen);
  return seen;
}

/**
 * Lays out a function's directory the way Lambda sees the deployed asset: the function's
 * `nodeModules` (and what they depend on) copied as real files into `outDir/node_modules`,
 * as CDK's `npm ci` installs them, and `@aws-sdk` linked in, standing for the SDK the Node.js
 * runtime provides. Nothing else of the repository resolves from there.
 */
export async function shipNodeModules(name: FunctionName, outDir: string): Promise<string[]> {
  const packages = new Set<string>();
  for (const module of FUNCTIONS[name].nodeModules ?? []) await withDependencies(module, packages);
  for (const module of packages) {
    const target = join(outDir, 'node_modules', module);
    await mkdir(dirname(target), { recursive: true });
    await cp(join(ROOT, 'node_modules', module), target, { recursive: true });
  }
  await mkdir(join(outDir, 'node_modules'), { recursive: true });
  await symlink(join(ROOT, 'node_modules', '@aws-sdk'), join(outDir, 'node_modules', '@aws-sdk'), 'dir');
  return [...packages].sort();
}
