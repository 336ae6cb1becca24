// The breaches list's text box since the question understanding grew (issue 36): a class's near
// names count ("credit cards" lists partial card data too), and a negated class stays words, as
// it always was, rather than turning into the class it negates.
import { describe, expect, it } from 'vitest';
import { matchesListText, understandListText } from '../../../shared/search/listText.ts';

const breach = (id: string, dataClasses: string[]) => ({ id, domain: `${id.toLowerCase()}.example`, breachDate: '2020-01-01', dataClasses });

describe('understandListText', () => {
  it('lets a class reach its near names', () => {
    const match = understandListText('credit cards')!;
    expect(match.dataClasses).toEqual(['Credit cards', 'Partial credit card data', 'Credit card CVV']);
    expect(matchesListText(breach('Shop', ['Partial credit card data']), match)).toBe(true);
    expect(matchesListText(breach('Forum', ['Passwords']), match)).toBe(false);
  });

  it('keeps a negated class as words, never as the class it negates', () => {
    const match = understandListText('without passwords')!;
    expect(match.dataClasses).toEqual([]);
    expect(match.words).toEqual(['without', 'passwords']);
    expect(matchesListText(breach('Forum', ['Passwords']), match)).toBe(false);
  });
});
