/** Topic tags as a post carries them: plain code, for the client as well as the schemas. */

/** What separates topic names in topic_tags: #, ＃, commas (, ， 、), semicolons and white space. */
const TOPIC_SEPARATORS = /[#＃,，、;；\s]+/u;

/** The topic names of a topic_tags text (`#话题一# #话题二#`, `话题一, 话题二`): trimmed, NFC, each once, in order. */
export function splitTopicTags(tags: string): string[] {
  const names: string[] = [];
  for (const part of tags.split(TOPIC_SEPARATORS)) {
    const name = part.trim().normalize('NFC');
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}
