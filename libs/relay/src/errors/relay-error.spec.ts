import { errorBody, notImplemented, RelayError, upstreamErrorInfo } from './relay-error';

describe('relay errors', () => {
  it('OpenAI shape with the request id in the message', () => {
    expect(errorBody(new RelayError(403, 'no', 'permission_error', 'x'), 'req-1')).toEqual({
      error: { message: 'no (request id: req-1)', type: 'permission_error', param: '', code: 'x' },
    });
    expect(notImplemented().status).toBe(501);
  });

  it('reads the upstream error whatever its shape', () => {
    expect(
      upstreamErrorInfo(
        '{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}',
      ),
    ).toEqual({
      message: 'bad key',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    });
    expect(upstreamErrorInfo('{"error":"plain"}').message).toBe('plain');
    expect(upstreamErrorInfo('{"message":"m","code":3}').message).toBe('m');
    expect(upstreamErrorInfo('<html>502</html>')).toEqual({
      message: '<html>502</html>',
      type: '',
      code: '',
    });
  });
});
