/**
 * An argv written as the command line it stands for: `words('--type luks2')` is `['--type', 'luks2']`. Only for
 * arguments without spaces; paths and other values go in as separate elements, so every element stays exact.
 */
export function words(text: string): string[] {
  return text.split(' ');
}
