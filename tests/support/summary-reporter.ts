/**
 * Ends the run with one plain line, "Tests: N passed, N failed, N skipped", that any CI log
 * reader understands, after one "Failed test: file > name: first line of its error" line per
 * failure, so that a log's last lines name what failed.
 */
import type { Reporter, TestModule } from 'vitest/node';

const ERROR_CHARS_SHOWN = 300;

function firstErrorLine(errors: ReadonlyArray<{ message?: string; name?: string }> | undefined): string {
  const error = errors?.[0];
  if (!error) return '';
  const message = `${error.name ?? 'Error'}: ${error.message ?? ''}`.split('\n')[0] ?? '';
  return message.length > ERROR_CHARS_SHOWN ? `${message.slice(0, ERROR_CHARS_SHOWN)}…` : message;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const module of testModules) {
      const file = module.moduleId.replace(`${process.cwd()}/`, '');
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') {
          failed++;
          failures.push(`${file} > ${test.fullName}: ${firstErrorLine(result.errors)}`);
        } else skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) {
        failed++;
        failures.push(`${file}: ${firstErrorLine(module.errors())}`);
      }
    }
    for (const failure of failures) process.stdout.write(`\nFailed test: ${failure}`);
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
