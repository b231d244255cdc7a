import { notifications } from '@mantine/notifications';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, HttpError, UnauthorizedError } from './http';
import { notifyRequestError } from './notify';

describe('notifyRequestError', () => {
  const shown = () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    return () => show.mock.calls.map(([data]) => [data.color, data.message]);
  };

  it.each([
    [new HttpError(429, 'Too Many Requests'), 'red', '错误：请求次数过多，请稍后再试！'],
    [new HttpError(500, 'Internal Server Error'), 'red', '错误：服务器内部错误，请联系管理员！'],
    [new HttpError(405, 'Method Not Allowed'), 'blue', '本站仅作演示之用，无服务端！'],
    [new HttpError(404, 'Not Found'), 'red', '错误：Not Found'],
    [new ApiError('余额不足'), 'red', '余额不足'],
    [new TypeError('Failed to fetch'), 'red', '错误：Failed to fetch'],
  ])('shows %s as the catalogue says', (error, color, message) => {
    const calls = shown();
    notifyRequestError(error);
    expect(calls()).toEqual([[color, message]]);
  });

  it('stays quiet on 401: the login page explains', () => {
    const calls = shown();
    notifyRequestError(new UnauthorizedError('expired'));
    expect(calls()).toEqual([]);
  });
});
