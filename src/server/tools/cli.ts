/** What the command-line tools share: one clear line for an operator's mistake, no stack trace. */
import { DataDirInUseError } from '../db/data-dir-lock.ts';

/** A mistake the operator can fix (a missing argument, a folder in use): printed as one line. */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** Runs a tool's main, printing its failure in one line and exiting 1. */
export async function runTool(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    const operatorMistake = error instanceof ToolError || error instanceof DataDirInUseError;
    console.error(operatorMistake || !(error instanceof Error) ? String((error as Error).message ?? error) : `${error.name}: ${error.message}`);
    process.exit(1);
  }
}

/** Whether this module is the script node was started with (not imported by a test). */
export function isMain(moduleUrl: string): boolean {
  const started = process.argv[1];
  return started !== undefined && new URL(moduleUrl).pathname === started;
}
