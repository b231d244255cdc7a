import { groupChoices, OWN_GROUP_LABEL, usableGroups } from './usable-groups';

const ADMIN_GROUPS = { default: '默认分组', vip: 'vip分组' };

describe('usableGroups: what new-api lets a user use', () => {
  it("the admin's UserUsableGroups plus the user's own group, labelled 用户分组", () => {
    expect(usableGroups(ADMIN_GROUPS, 'special')).toEqual({
      default: '默认分组',
      vip: 'vip分组',
      special: OWN_GROUP_LABEL,
    });
    expect(OWN_GROUP_LABEL).toBe('用户分组');
  });

  it("keeps the admin's label when the own group is listed, and never edits the input", () => {
    const input = { ...ADMIN_GROUPS };
    expect(usableGroups(input, 'vip')).toEqual(ADMIN_GROUPS);
    usableGroups(input, 'special');
    expect(input).toEqual(ADMIN_GROUPS);
  });

  it('without a group (an anonymous caller) default is always offered', () => {
    expect(usableGroups({ vip: 'vip分组' }, '')).toEqual({ vip: 'vip分组', default: 'default' });
    expect(usableGroups(ADMIN_GROUPS, '')).toEqual(ADMIN_GROUPS);
  });
});

describe('groupChoices: the pickers get {ratio, desc} of usable groups that have a ratio', () => {
  it('pairs each usable group with its ratio; leaves out groups without one', () => {
    const usable = { default: '默认分组', vip: 'vip分组', noratio: '无倍率' };
    expect(groupChoices(usable, { default: 1, vip: 2.5, svip: 3 })).toEqual({
      default: { ratio: 1, desc: '默认分组' },
      vip: { ratio: 2.5, desc: 'vip分组' },
    });
  });

  it('ignores ratios that are not numbers and inherited keys', () => {
    expect(groupChoices({ default: 'd', toString: 't' }, { default: '1', toString: 1 })).toEqual({
      toString: { ratio: 1, desc: 't' },
    });
    expect(groupChoices({}, { default: 1 })).toEqual({});
  });
});
