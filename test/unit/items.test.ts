import { describe, expect, it } from 'vitest';
import { fieldsOf, pick } from '../../lib/db/items';

interface Entity {
  id: string;
  name: string;
  note: string | null;
}

describe('entity field lists', () => {
  it('read every listed field, missing ones as null', () => {
    const fields = fieldsOf<Entity>()(['id', 'name', 'note']);
    expect(pick<Entity>({ pk: 'X#1', sk: 'X', id: '1', name: 'Ana', extra: true }, fields)).toEqual({ id: '1', name: 'Ana', note: null });
  });

  it('refuse, at compile time, a list that leaves a field out (npm run typecheck fails otherwise)', () => {
    // @ts-expect-error `note` is missing: adding a field to an entity cannot silently drop it.
    const incomplete = fieldsOf<Entity>()(['id', 'name']);
    expect(incomplete).toEqual(['id', 'name']);
  });
});
