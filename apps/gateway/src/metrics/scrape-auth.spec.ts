import { scrapeAllowed } from './scrape-auth';

describe('scrapeAllowed', () => {
  it('lets every scrape through without a token', () => {
    expect(scrapeAllowed(undefined, undefined)).toBe(true);
  });

  it('wants exactly "Bearer <token>" when one is set', () => {
    expect(scrapeAllowed('s3cret', 'Bearer s3cret')).toBe(true);
    expect(scrapeAllowed('s3cret', 'bearer s3cret')).toBe(true);
    expect(scrapeAllowed('s3cret', undefined)).toBe(false);
    expect(scrapeAllowed('s3cret', 's3cret')).toBe(false);
    expect(scrapeAllowed('s3cret', 'Bearer s3cre')).toBe(false);
    expect(scrapeAllowed('s3cret', 'Bearer s3cret2')).toBe(false);
    expect(scrapeAllowed('s3cret', 'Basic czNjcmV0')).toBe(false);
  });
});
