import type { Key } from './keys';
import type { TransactItem } from './client';

/**
 * The parts of one UpdateItem that several concerns contribute to (a sign-in's own fields, the
 * credential guard, the session count): each states its clauses with placeholders of its own,
 * and `updateItem` joins them. Placeholders must not collide; each concern names its own.
 */
export interface UpdateParts {
  set?: readonly string[];
  remove?: readonly string[];
  /** Conditions, all of which must hold (joined with AND). */
  conditions?: readonly string[];
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** The parts joined: clauses in order, placeholders merged (a placeholder given twice with two values or attributes is a mistake, thrown). */
export function joinParts(...parts: UpdateParts[]): Required<UpdateParts> {
  const joined = {
    set: [] as string[],
    remove: [] as string[],
    conditions: [] as string[],
    names: {} as Record<string, string>,
    values: {} as Record<string, unknown>,
  };
  for (const part of parts) {
    joined.set.push(...(part.set ?? []));
    joined.remove.push(...(part.remove ?? []));
    joined.conditions.push(...(part.conditions ?? []));
    for (const [name, value] of Object.entries(part.values ?? {})) {
      if (name in joined.values && joined.values[name] !== value) throw new Error(`update parts: ${name} given twice`);
      joined.values[name] = value;
    }
    for (const [name, attribute] of Object.entries(part.names ?? {})) {
      if (name in joined.names && joined.names[name] !== attribute) throw new Error(`update parts: ${name} names two attributes`);
      joined.names[name] = attribute;
    }
  }
  return joined;
}

/** A transaction's Update of `key` from the joined parts. */
export function updateItem(tableName: string, key: Key, ...parts: UpdateParts[]): TransactItem & { Update: object } {
  const { set, remove, conditions, names, values } = joinParts(...parts);
  const expression = [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].filter(Boolean).join(' ');
  if (!expression) throw new Error('update parts: nothing to update');
  return {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: expression,
      ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  };
}
