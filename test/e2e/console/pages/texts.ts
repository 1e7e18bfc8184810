import { common } from '../../../../console/src/i18n/common';
import { authMessages } from '../../../../console/src/pages/auth/messages';
import type { Language } from '../harness';

/**
 * The console's own texts, by area, for the page objects: a control is found by the name the
 * console gives it in the test's language. (The English names the product promises are also
 * checked literally, in navigation.test.ts.)
 */
const AREAS = { common, auth: authMessages } as const;

export type Area = keyof typeof AREAS;

export function messagesOf<A extends Area>(area: A, language: Language): (typeof AREAS)[A][Language] {
  return AREAS[area][language];
}
