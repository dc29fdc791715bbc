import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { platformSettingsList } from '../../src/platform-settings/settings-registry.ts';
import { platformModules } from '../../src/platforms/registry.ts';

describe('the platform registry', () => {
  it('lists each platform once, with its settings under the same name', () => {
    const names = platformModules.map((platform) => platform.name);
    expect(new Set(names).size).toBe(names.length);
    expect(platformSettingsList.map((settings) => settings.name)).toEqual(names);
    const config = loadConfig({}, { envFile: false });
    for (const name of names) expect(config).toHaveProperty(name);
  });

  it('owns each thread id by exactly one platform', () => {
    for (const platform of platformModules) {
      const threadId = `${platform.name}:a:b:c`;
      expect(platformModules.filter((candidate) => candidate.ids.owns(threadId))).toEqual([platform]);
    }
  });

  it('is the only code outside the platform folders that names a platform', () => {
    // Comments and help text may mention one; code (identifiers, strings used as values) may not.
    const hits = execFileSync('git', ['grep', '-n', '-i', '-E', 'slack|discord', '--', 'src/*.ts'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('src/platforms/'))
      .filter((line) => !/^[^:]+:\d+:\s*(\/\/|\*|\/\*)/.test(line));
    // The platforms' settings sit on the ground floor with the configuration (read before any platform
    // code loads); a migration's comment may name a platform, as may help text in comments.
    const allowed = [/^src\/platform-settings\//];
    // The search itself works: it finds what is left.
    expect(hits.some((line) => line.startsWith('src/platform-settings/'))).toBe(true);
    expect(hits.filter((line) => !allowed.some((pattern) => pattern.test(line)))).toEqual([]);
  });
});
