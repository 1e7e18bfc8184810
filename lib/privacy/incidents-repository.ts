import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionally } from '../db/conditions';
import { INCIDENT_RETENTION_DAYS, type Incident } from './model';
import { db, tableName } from '../db/client';
import { INCIDENT_ITEMS } from '../db/item-types';
import { fieldsOf, pick } from '../db/items';
import { keys } from '../db/keys';

const FIELDS = fieldsOf<Incident>()(['id', 'summary', 'detectedAt', 'categories', 'holders', 'notifiedAt', 'recordedAt', 'notifyBy']);

/** When DynamoDB removes an incident (TTL, epoch seconds): INCIDENT_RETENTION_DAYS after it was recorded. */
export const incidentExpiresAtEpoch = (incident: Pick<Incident, 'recordedAt'>): number =>
  Math.floor(Date.parse(incident.recordedAt) / 1000) + INCIDENT_RETENTION_DAYS * 24 * 3600;

/** Register an incident (its id is new: no condition), kept INCIDENT_RETENTION_DAYS. */
export async function putIncident(incident: Incident): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.incident(incident.detectedAt, incident.id), type: INCIDENT_ITEMS.incident, ...incident, ttl: incidentExpiresAtEpoch(incident) },
    }),
  );
}

/** The whole register, newest detection first (a few items a year: every page read). */
export async function listIncidents(): Promise<Incident[]> {
  const incidents: Incident[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.incidentRegister().pk },
        ScanIndexForward: false,
        ConsistentRead: true,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    incidents.push(...(page.Items ?? []).map((item) => pick<Incident>(item, FIELDS)));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return incidents;
}

/** Note when ANPD and the holders were notified of a registered incident; false when the register has no such incident. */
export function setIncidentNotified(detectedAt: string, incidentId: string, notifiedAt: string): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.incident(detectedAt, incidentId),
        UpdateExpression: 'SET notifiedAt = :notifiedAt',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':notifiedAt': notifiedAt },
      }),
    ),
  );
}
