/** The roles of a user in a tenant; the platform administrator profile is a flag beside them. */
export const ROLES = ['ADMIN', 'MEMBER'] as const;
export type Role = (typeof ROLES)[number];
