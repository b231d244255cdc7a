import type { UserGroupDto } from '@tollgate/contracts';

/** new-api's label of a user's own group when the admin did not list it in UserUsableGroups. */
export const OWN_GROUP_LABEL = '用户分组';

/**
 * Groups a user may use (code → label): the admin's UserUsableGroups plus the user's own group,
 * as new-api decides it. Without a group (an anonymous caller) `default` is always offered.
 */
export function usableGroups(
  userUsableGroups: Readonly<Record<string, string>>,
  ownGroup: string,
): Record<string, string> {
  const groups: Record<string, string> = { ...userUsableGroups };
  if (ownGroup === '' && !Object.hasOwn(groups, 'default')) groups['default'] = 'default';
  if (ownGroup !== '' && !Object.hasOwn(groups, ownGroup)) groups[ownGroup] = OWN_GROUP_LABEL;
  return groups;
}

/**
 * What the group pickers show (GET /api/user/self/groups): the usable groups that have a ratio in
 * GroupRatio, each with that ratio and its label. A group without a ratio cannot be billed, so new-api
 * leaves it out.
 */
export function groupChoices(
  usable: Readonly<Record<string, string>>,
  groupRatio: Readonly<Record<string, unknown>>,
): Record<string, UserGroupDto> {
  const choices: Record<string, UserGroupDto> = {};
  for (const [group, ratio] of Object.entries(groupRatio)) {
    if (!Object.hasOwn(usable, group) || typeof ratio !== 'number') continue;
    choices[group] = { ratio, desc: usable[group]! };
  }
  return choices;
}
