import { PreconditionFailed, ValidationError } from '../errors';

/**
 * ETags of versioned master data (products, categories): the entity's version, quoted, a
 * strong validator (the version moves with every field a view shows), and the `If-Match`
 * rule of RFC 9110 on it.
 */

/** The ETag of a view at `version`. */
export const versionEtag = (entity: { version: number }): string => `"${entity.version}"`;

/**
 * What an `If-Match` asks for: `*` (any current version: the change applies as without
 * one), or one or more ETags, `"3"` or `W/"3"`, comma-separated (any of them). Undefined for
 * none or `*`; a 400 for anything else.
 */
export function matchedVersions(ifMatch: string | undefined, what: string): ReadonlySet<number> | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const versions = new Set<number>();
  for (const tag of ifMatch.split(',')) {
    const match = /^\s*(?:W\/)?"([0-9]{1,15})"\s*$/.exec(tag);
    if (!match) throw ValidationError.of('If-Match', `must be the ETag of the ${what} as read, e.g. "3", or *`);
    versions.add(Number(match[1]));
  }
  return versions;
}

/** Throws the 412 when the entity is no longer at a version the `If-Match` named (nothing is written). */
export function requireMatch(expected: ReadonlySet<number> | undefined, current: number, what: string): void {
  if (expected === undefined || expected.has(current)) return;
  throw new PreconditionFailed(
    `The ${what} changed since it was read: it is at version ${current}, the If-Match names ${[...expected].join(', ')}. Read it again and retry.`,
  );
}
