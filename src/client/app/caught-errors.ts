/** What becomes of an error a React error boundary caught (the router's error pages among them). */
import { ErrorCode } from '#shared/errors.ts';
import { isApiError } from '../lib/http.ts';

/**
 * Logged as React logs it, except the server's answer that something does not exist: the page
 * says so (route-error.tsx), an expected answer and no fault to report.
 */
export function reportCaughtError(error: unknown): void {
  if (isApiError(error) && error.code === ErrorCode.NotFound) return;
  console.error(error);
}
