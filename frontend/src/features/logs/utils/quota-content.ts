import { LogType, type LogDto } from '@tollgate/contracts';

/**
 * A quota amount in the server's balance texts (`充值 50000000 额度`, `通过兑换码充值 N 额度（…）`,
 * `新用户注册赠送 N 额度`, `邀请额度划转 N 到余额`, `root 账户初始额度 N`, `管理员将用户额度从 A 修改为 B`):
 * the number after one of these words, before 额度, 到余额, 修改为 or the end.
 */
const AMOUNT = /(?<=(?:充值|赠送|划转|初始额度|从|修改为) )-?\d+(?= 额度| 到余额| 修改为|$)/g;

/** The rows whose content states a balance change in quota units. */
const BALANCE_TYPES: ReadonlySet<LogType> = new Set([
  LogType.TopUp,
  LogType.System,
  LogType.Manage,
]);

/**
 * The row's content with its quota amounts written by the console's money format (`充值 $100.00
 * 额度` when the site shows dollars), as new-api writes them; other rows' content as it is.
 */
export function quotaContent(
  log: Pick<LogDto, 'type' | 'content'>,
  format: (quota: number) => string,
): string {
  if (!BALANCE_TYPES.has(log.type)) return log.content;
  return log.content.replace(AMOUNT, (amount) => format(Number(amount)));
}
