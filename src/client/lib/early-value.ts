/** A server-rendered field's early words or choice (lib/early-acts-catcher.ts keeps them), for its component. */
import { useEffect } from 'react';
import type {} from './early-acts-catcher.ts';

/**
 * What was typed (a text) or chosen (the values checked) in the server-rendered field named `name`
 * before the app started, handed to `adopt` once as the component mounts: it stays, counts and
 * enables what it should. Nothing when there was none, or no name (a field the server never renders).
 */
export function useEarlyValue(name: string | undefined, adopt: (value: string | string[]) => void): void {
  useEffect(() => {
    const value = name === undefined ? undefined : window.earlyActs?.takeValue(name);
    if (value !== undefined && value.length > 0) adopt(value);
    // Once, as the field is taken over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name]);
}
