export const Role = { Guest: 0, Common: 1, Admin: 10, Root: 100 } as const;
export type RoleValue = (typeof Role)[keyof typeof Role];

export const UserStatus = { Enabled: 1, Disabled: 2, Deregistered: 3 } as const;

export const ChannelStatus = { Enabled: 1, ManuallyDisabled: 2, AutoDisabled: 3 } as const;
export const TokenStatus = { Enabled: 1, Disabled: 2, Expired: 3, Exhausted: 4 } as const;
export const RedemptionStatus = { Unused: 1, Disabled: 2, Used: 3 } as const;
export const LogType = { TopUp: 1, Consume: 2, Manage: 3, System: 4 } as const;

export const isAdmin = (role: number): boolean => role >= Role.Admin;
export const isRoot = (role: number): boolean => role >= Role.Root;
