import { describe, expect, it } from 'vitest';
import { readReplyError } from './reply-error';

describe('readReplyError', () => {
  it("reads the relay's error body and marks an empty balance", () => {
    const body = JSON.stringify({
      error: { message: '用户额度不足，剩余额度：$0.00', code: 'insufficient_user_quota' },
    });
    expect(readReplyError(body)).toEqual({
      message: '用户额度不足，剩余额度：$0.00',
      outOfQuota: true,
    });
  });

  it("reads new-api's { message } and plain text", () => {
    expect(readReplyError('{"success":false,"message":"无权进行此操作"}')).toEqual({
      message: '无权进行此操作',
      outOfQuota: false,
    });
    expect(readReplyError(' Bad Gateway ')).toEqual({ message: 'Bad Gateway', outOfQuota: false });
  });
});
