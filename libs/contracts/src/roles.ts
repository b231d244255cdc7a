export const Role = { Guest: 0, Common: 1, Admin: 10, Root: 100 } as const;

/**
 * 1 activated, 2 banned. One-api and new-api also show a status 3 for which no enable is offered;
 * Tollgate marks deregistration with DeletedAt instead, and the console treats both the same way.
 */
export const UserStatus = { Enabled: 1, Disabled: 2, Deregistered: 3 } as const;

export const isAdmin = (role: number): boolean => role >= Role.Admin;
export const isRoot = (role: number): boolean => role >= Role.Root;
