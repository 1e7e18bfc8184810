import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../client';
import { keys } from '../keys';

export interface Invitation {
  id: string;
  tenantId: string;
  email: string;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
  expiresAtEpoch: number;
}

/** Create or renew the pending invitation of an e-mail into a tenant (one per e-mail). */
export async function putInvitation(invitation: Invitation): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.invitation(invitation.tenantId, invitation.email), type: 'Invitation', ...invitation, ttl: invitation.expiresAtEpoch },
    }),
  );
}
