import type { MessageTable } from '../shared/i18n/message-table';

/** Texts of user rules and user management, zh-CN in the wording of one-api and new-api. */
export const USER_MESSAGES: MessageTable = {
  'user.not_found': { 'zh-CN': '用户不存在', en: 'User not found' },
  'user.already_exists': { 'zh-CN': '用户已存在', en: 'The user already exists' },
  'user.username_taken': { 'zh-CN': '用户名已存在', en: 'The username is already taken' },
  'user.username_required': { 'zh-CN': '用户名不能为空', en: 'The username is required' },
  'user.username_too_long': {
    'zh-CN': '用户名长度不得超过 {max} 位',
    en: 'The username must be at most {max} characters',
  },
  'user.username_invalid': {
    'zh-CN': '用户名只能包含英文字母、数字和 _ . -',
    en: 'The username may contain only letters A-Z, digits and _ . -',
  },
  'user.own_password_via_self': {
    'zh-CN': '修改自己的密码请在个人设置中进行，并输入原密码',
    en: 'Change your own password in your personal settings, with your current password',
  },
  'user.display_name_invalid': {
    'zh-CN': '显示名称包含不允许的字符',
    en: 'The display name contains a character that is not allowed',
  },
  'user.display_name_too_long': {
    'zh-CN': '显示名称长度不得超过 {max} 位',
    en: 'The display name must be at most {max} characters',
  },
  'user.password_required': { 'zh-CN': '密码不能为空', en: 'The password is required' },
  'user.password_too_short': {
    'zh-CN': '密码长度不得小于 8 位！',
    en: 'The password must be at least 8 characters',
  },
  'user.password_too_long': {
    'zh-CN': '密码长度不得超过 {max} 位',
    en: 'The password must be at most {max} characters',
  },
  'user.group_required': { 'zh-CN': '分组不能为空', en: 'The group is required' },
  'user.group_unknown': { 'zh-CN': '分组不存在', en: 'Unknown group' },
  'user.deregistered': { 'zh-CN': '用户已注销', en: 'The user has been deregistered' },
  'user.forbidden_same_or_higher_role': {
    'zh-CN': '无权更新同权限等级或更高权限等级的用户信息',
    en: 'You cannot manage a user of the same or a higher role',
  },
  'user.forbidden_view_same_or_higher_role': {
    'zh-CN': '无权获取同级或更高等级用户的信息',
    en: 'You cannot view a user of the same or a higher role',
  },
  'user.aff_code_taken': { 'zh-CN': '邀请码已被占用', en: 'The invitation code is taken' },
  'user.only_root_can_promote': {
    'zh-CN': '普通管理员用户无法提升其他用户为管理员',
    en: 'Only the super administrator can promote users',
  },
  'user.already_admin': {
    'zh-CN': '该用户已经是管理员',
    en: 'The user is already an administrator',
  },
  'user.cannot_demote_root': {
    'zh-CN': '无法降级超级管理员用户',
    en: 'The super administrator cannot be demoted',
  },
  'user.already_common': {
    'zh-CN': '该用户已经是普通用户',
    en: 'The user is already an ordinary user',
  },
  'user.cannot_disable_root': {
    'zh-CN': '无法禁用超级管理员用户',
    en: 'The super administrator cannot be disabled',
  },
  'user.cannot_delete_root': {
    'zh-CN': '不能删除超级管理员账户',
    en: 'The super administrator account cannot be deleted',
  },
};
