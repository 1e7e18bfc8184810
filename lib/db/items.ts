/**
 * Item <-> entity helpers shared by the repositories. Absent optional values are not
 * stored at all (so `attribute_not_exists` conditions mean what they say) and come back
 * as `null`, the way the API shows them.
 */

/** Drop null and undefined values before writing an item. */
export function withoutNulls<T extends object>(entity: T): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entity)) if (value !== null && value !== undefined) item[key] = value;
  return item;
}

/** An entity's field list, checked complete by `fieldsOf`. */
export type FieldList<T> = readonly (keyof T & string)[] & { readonly __entity?: T };

/**
 * The field list of entity `T`, which must name every field: one left out is a compile error
 * that names it (`missingFields`), so adding a field to an entity cannot silently drop it.
 * `fieldsOf<User>()(['id', 'name', ...])`.
 */
export const fieldsOf =
  <T>() =>
  <const L extends readonly (keyof T & string)[]>(
    fields: L & ([Exclude<keyof T, L[number]>] extends [never] ? unknown : { missingFields: Exclude<keyof T, L[number]> }),
  ): FieldList<T> =>
    fields;

/** Read an entity's fields from an item, missing ones as null. */
export function pick<T>(item: Record<string, unknown>, fields: FieldList<T>): T {
  const entity: Record<string, unknown> = {};
  for (const field of fields) entity[field] = item[field] ?? null;
  return entity as T;
}

/** Epoch seconds of an ISO timestamp (DynamoDB TTL unit). */
export function epochSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/**
 * The parts of an UpdateItem that set the given fields and remove those given as null
 * (undefined ones are left alone), with placeholder names so any field name is safe.
 */
export function setOrRemove(fields: Record<string, unknown>): {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  Object.entries(fields).forEach(([field, value], index) => {
    if (value === undefined) return;
    names[`#f${index}`] = field;
    if (value === null) {
      removes.push(`#f${index}`);
    } else {
      values[`:v${index}`] = value;
      sets.push(`#f${index} = :v${index}`);
    }
  });
  const clauses = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean);
  return { UpdateExpression: clauses.join(' '), ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}
