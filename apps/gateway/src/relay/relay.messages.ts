/** Relay error texts (zh-CN: one-api's and new-api's wording; en: a translation). Sent in OpenAI error bodies. */
export const RELAY_MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  'relay.token_missing': { 'zh-CN': '未提供令牌', en: 'No API key provided' },
  'relay.token_invalid': { 'zh-CN': '无效的令牌', en: 'Invalid API key' },
  'relay.token_disabled': { 'zh-CN': '该令牌状态不可用', en: 'This API key is disabled' },
  'relay.token_expired': { 'zh-CN': '该令牌已过期', en: 'This API key has expired' },
  'relay.token_exhausted': { 'zh-CN': '该令牌额度已用尽', en: "This API key's quota is used up" },
  'relay.user_banned': { 'zh-CN': '用户已被封禁', en: 'This user has been banned' },
  'relay.pin_forbidden': {
    'zh-CN': '普通用户不支持指定渠道',
    en: 'Only administrators may pin a channel',
  },
  'relay.pinned_channel_invalid': {
    'zh-CN': '指定的渠道不存在或已被禁用：{id}',
    en: 'The pinned channel does not exist or is disabled: {id}',
  },
  'relay.ip_not_allowed': {
    'zh-CN': '您的 IP 不在令牌允许访问的列表中',
    en: 'Your IP is not in the allow-list of this API key',
  },
  'relay.model_not_allowed': {
    'zh-CN': '该令牌无权访问模型 {model}',
    en: 'This API key may not use the model {model}',
  },
  'relay.group_disabled': {
    'zh-CN': '分组 {group} 已被弃用',
    en: 'The group {group} is no longer available',
  },
  'relay.no_channel': {
    'zh-CN': '当前分组 {group} 下对于模型 {model} 无可用渠道',
    en: 'No channel is available for the model {model} in the group {group}',
  },
  'relay.price_not_configured': {
    'zh-CN': '模型 {model} 倍率或价格未配置，请联系管理员设置或开始自用模式',
    en: 'The ratio or price of the model {model} is not set; ask the administrator to set it or to turn on self-use mode',
  },
  'relay.user_quota': {
    'zh-CN': '用户额度不足，剩余额度：{remain}',
    en: 'Not enough user quota (remaining: {remain})',
  },
  'relay.token_quota': {
    'zh-CN': '令牌额度不足，剩余额度：{remain}',
    en: 'Not enough quota on this API key (remaining: {remain})',
  },
  'relay.token_budget': {
    'zh-CN': '令牌{period}预算已用尽：{period}最多 {limit} 额度，将于 {reset} 重置',
    en: 'This API key reached its {period} budget of {limit} quota; it resets at {reset}',
  },
  'relay.user_budget': {
    'zh-CN': '用户{period}预算已用尽：{period}最多 {limit} 额度，将于 {reset} 重置',
    en: 'Your {period} budget of {limit} quota is used up; it resets at {reset}',
  },
  'relay.model_missing': {
    'zh-CN': '未指定模型名称，模型名称不能为空',
    en: 'No model given: the model name cannot be empty',
  },
  'relay.invalid_body': { 'zh-CN': '无效的请求体', en: 'Invalid request body' },
  'relay.rate_rpm': {
    'zh-CN': '令牌请求过于频繁：每分钟最多 {max} 次请求',
    en: 'Rate limit reached for this API key: {max} requests per minute',
  },
  'relay.rate_tpm': {
    'zh-CN': '令牌用量过高：每分钟最多 {max} 个 token',
    en: 'Rate limit reached for this API key: {max} tokens per minute',
  },
  'relay.rate_concurrency': {
    'zh-CN': '令牌并发请求过多：最多同时 {max} 个请求',
    en: 'Too many concurrent requests for this API key: at most {max}',
  },
  'relay.rate_user_requests': {
    'zh-CN':
      '您已达到总请求数限制：{minutes}分钟内最多请求{max}次，包括失败次数，请检查您的请求是否正确',
    en: 'You reached the request limit: at most {max} requests (failed ones included) in {minutes} minutes',
  },
  'relay.rate_user_successes': {
    'zh-CN': '您已达到请求数限制：{minutes}分钟内最多请求{max}次',
    en: 'You reached the request limit: at most {max} successful requests in {minutes} minutes',
  },
  // new-api answers these in English whatever the language; clients may match on the text.
  'relay.sensitive_prompt': {
    'zh-CN': 'sensitive words detected',
    en: 'sensitive words detected',
  },
  'relay.sensitive_response': {
    'zh-CN': 'sensitive words detected on response: {words}',
    en: 'sensitive words detected on response: {words}',
  },
  'relay.forbidden_image_upload': {
    'zh-CN': '您无权通过接口上传图片',
    en: 'Your role may not send images through the API',
  },
  'relay.forbidden_file_upload': {
    'zh-CN': '您无权通过接口上传文件',
    en: 'Your role may not send files through the API',
  },
  'relay.forbidden_image_download': {
    'zh-CN': '您无权通过接口生成并下载图片',
    en: 'Your role may not generate and download images through the API',
  },
  'relay.forbidden_file_download': {
    'zh-CN': '您无权通过接口生成并下载文件',
    en: 'Your role may not generate and download files (speech audio) through the API',
  },
  'relay.upstream_saturated': {
    'zh-CN': '当前分组上游负载已饱和，请稍后再试',
    en: 'The upstreams of this group are saturated, please try again later',
  },
  'relay.upstream_unreachable': {
    'zh-CN': '上游服务连接失败',
    en: 'Could not reach the upstream service',
  },
  'relay.task_request_failed': {
    'zh-CN': '请求上游地址失败',
    en: 'Could not send the request to the upstream',
  },
  'relay.image_unavailable': { 'zh-CN': '图片暂不可用', en: 'Image unavailable' },
  'relay.upstream_timeout': { 'zh-CN': '上游服务响应超时', en: 'The upstream service timed out' },
  'relay.upstream_bad_answer': {
    'zh-CN': '上游服务返回了无法识别的内容',
    en: 'The upstream service answered something unreadable',
  },
  'relay.model_not_found': {
    'zh-CN': '模型 {model} 不存在',
    en: "The model '{model}' does not exist",
  },
  'relay.not_implemented': { 'zh-CN': 'API 未实现', en: 'API not implemented' },
  'relay.not_logged_in': {
    'zh-CN': '未登录或登录已过期，请重新登录！',
    en: 'Not logged in or the session expired, please log in again',
  },
  // The edge: answers no relay handler writes (unknown URL, wrong method, limits of the request).
  'relay.invalid_url': {
    'zh-CN': '无效的 URL（{method} {path}）',
    en: 'Invalid URL ({method} {path})',
  },
  'relay.method_not_allowed': {
    'zh-CN': '该 URL 不支持此请求方法（{method} {path}）',
    en: 'Invalid method for URL ({method} {path})',
  },
  'relay.body_too_large': {
    'zh-CN': '请求体过大，最多 {limit} MiB',
    en: 'The request body is too large: at most {limit} MiB',
  },
  'relay.uri_too_long': { 'zh-CN': '请求 URL 过长', en: 'The request URL is too long' },
  'relay.bad_url': { 'zh-CN': '请求 URL 编码无效', en: 'The request URL is not validly encoded' },
  'relay.headers_too_large': {
    'zh-CN': '请求头过大',
    en: 'The request headers are too large',
  },
  'relay.request_timeout': { 'zh-CN': '请求超时', en: 'The request timed out' },
  'relay.bad_request': { 'zh-CN': '无法解析的 HTTP 请求', en: 'Malformed HTTP request' },
};
