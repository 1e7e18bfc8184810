import { useState } from 'react';

/** The cursors of the pages after the first, as a stack: the last one reads the page shown (none: the first page). */
export const pageOfStack = (stack: readonly string[]) => stack.length + 1;

/**
 * Paging over a cursor list (a `Link` header or `{ items, nextCursor }`): the cursors followed
 * so far, so that "previous" goes back without the API paging backwards.
 */
export function useCursorStack() {
  const [stack, setStack] = useState<string[]>([]);
  return {
    cursor: stack.at(-1),
    page: pageOfStack(stack),
    next: (cursor: string) => setStack((current) => [...current, cursor]),
    previous: () => setStack((current) => current.slice(0, -1)),
    reset: () => setStack([]),
  };
}
