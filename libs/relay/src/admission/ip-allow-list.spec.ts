import { ipAllowed } from './ip-allow-list';

describe('ipAllowed', () => {
  it('allows everyone when the list is empty', () => {
    expect(ipAllowed([], '203.0.113.9')).toBe(true);
    expect(ipAllowed([' '], '203.0.113.9')).toBe(true);
  });

  it('matches single IPs and CIDRs, v4 and v6, and v4-mapped addresses', () => {
    const list = ['10.0.0.0/8', '192.168.1.7', '2001:db8::/32', 'junk', '1.2.3.4/99'];
    expect(ipAllowed(list, '10.20.30.40')).toBe(true);
    expect(ipAllowed(list, '::ffff:10.1.1.1')).toBe(true);
    expect(ipAllowed(list, '192.168.1.7')).toBe(true);
    expect(ipAllowed(list, '192.168.1.8')).toBe(false);
    expect(ipAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(ipAllowed(list, '2001:db9::1')).toBe(false);
    expect(ipAllowed(list, '1.2.3.4')).toBe(false);
    expect(ipAllowed(list, 'not-an-ip')).toBe(false);
  });
});
