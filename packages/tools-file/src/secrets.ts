import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { isInside } from './paths.js';

/**
 * Files whose contents would hand secrets to the model. Reading or listing them is asked
 * about, with this reason; they are never on the whitelist.
 */
export function secretReason(realPath: string, home = homedir()): string | undefined {
  const name = basename(realPath);
  const lower = name.toLowerCase();
  if (/^\.env($|\.)/.test(lower) && !/^\.env\.(example|sample|template|dist)$/.test(lower)) {
    return `${name} usually holds secrets (environment files)`;
  }
  if (/^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/.test(lower)) return `${name} is a private SSH key`;
  if (/\.(pem|key|p12|pfx|keystore|jks)$/.test(lower)) return `${name} may hold a private key or certificate store`;
  if (lower === '.git-credentials' || lower === '.netrc' || lower === '_netrc' || lower === '.pgpass') return `${name} holds saved credentials`;
  for (const [directory, what] of [
    ['.ssh', 'SSH keys and configuration'],
    ['.aws', 'AWS credentials'],
    ['.config/gcloud', 'Google Cloud credentials'],
    ['.azure', 'Azure credentials'],
    ['.kube', 'Kubernetes credentials'],
    ['.docker', 'Docker registry credentials'],
    ['.gnupg', 'GnuPG keys'],
  ] as const) {
    if (isInside(realPath, join(home, directory))) return `${realPath} is in ~/${directory}, which holds ${what}`;
  }
  if (realPath === '/etc/shadow' || realPath === '/etc/gshadow' || realPath.startsWith('/etc/ssh/ssh_host_')) {
    return `${realPath} holds system secrets`;
  }
  if (lower === '.npmrc' || lower === '.pypirc' || lower === '.yarnrc.yml') {
    if (holdsToken(realPath)) return `${name} holds a registry token`;
  }
  return undefined;
}

function holdsToken(path: string): boolean {
  try {
    if (statSync(path).size > 1_000_000) return true;
    return /(_authToken|_auth\b|password|token)\s*[=:]/i.test(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
}

/** Places where a write changes how the machine or the shell behaves. */
export function sensitiveWriteReason(realPath: string, home = homedir()): string | undefined {
  if (/^\/(etc|usr|bin|sbin|lib|lib64|boot|sys|proc|dev)(\/|$)/.test(realPath)) return `${realPath} is a system path`;
  const name = basename(realPath);
  if (isInside(realPath, join(home, '.ssh'))) return `${realPath} is in ~/.ssh (a write can grant access to this machine)`;
  if (/^\.(bashrc|bash_profile|profile|zshrc|zprofile|zshenv|bash_login)$/.test(name) && isInside(realPath, home)) {
    return `${name} runs in every new shell`;
  }
  if (isInside(realPath, join(home, '.config', 'autostart')) || name === 'crontab') return `${realPath} runs programs automatically`;
  return secretReason(realPath, home);
}
