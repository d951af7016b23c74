import { describe, expect, it } from 'vitest';
import { isSecretColumnName } from '../src/index.js';

// Column names of real schemas (Rails/Devise, Django, Laravel, Supabase auth, WordPress, Keycloak,
// Odoo, Auth0 exports, Stripe-like billing tables) and key/value settings keys.
const SECRET = [
  'password', 'PASSWORD', 'passwd', 'user_pass', 'user_pwd', 'user_pw', 'pw', 'encrypted_password', 'hashed_password', 'password_hash', 'passwordHash',
  'password_digest', 'passphrase', 'pass', 'pin', 'api_key', 'apiKey', 'API-Key', 'apikey', 'api_token', 'access_token', 'refresh_token',
  'refreshToken', 'id_token', 'auth_token', 'remember_token', 'reset_password_token', 'confirmation_token', 'unlock_token', 'token',
  'secret', 'client_secret', 'otp_secret', 'totp_secret', 'encrypted_otp_secret', 'webhook_secret', 'jwt_secret', 'secret_key', 'private_key',
  'privateKey', 'signing_key', 'encryption_key', 'access_key', 'aws_secret_access_key', 'credentials', 'smtp_password', 'stripe_secret',
  'mail_password', 'db_pass', 'recovery_codes', 'otp_backup_codes', 'seed_phrase', 'mnemonic', 'wallet_seed', 'card_number', 'cvv', 'salt',
  'connection_string', 'user_pass_hash', 'session_key', 'license_key',
];
const NOT_SECRET = [
  'key', 'value', 'id', 'email', 'name', 'session_id', 'token_id', 'token_count', 'max_tokens', 'input_tokens', 'tokens', 'token_type',
  'token_expires_at', 'password_changed_at', 'password_reset_at', 'reset_password_sent_at', 'password_set', 'password_required', 'is_secret',
  'has_password', 'secret_name', 'api_key_id', 'api_key_prefix', 'api_key_last4', 'key_id', 'public_key', 'keyboard', 'passenger', 'passport_country',
  'compass', 'bypass', 'pinned', 'spinner', 'seed', 'seeded_at', 'description', 'created_at', 'otp_enabled', 'credential_type', 'secret_version',
  'token_scope', 'primary_key', 'foreign_key', 'sort_key', 'cache_key', 'idempotency_key', 'password_strength', 'tokenizer', 'monkey',
];

describe('isSecretColumnName', () => {
  it.each(SECRET)('%s holds secrets', (name) => expect(isSecretColumnName(name)).toBe(true));
  it.each(NOT_SECRET)('%s does not', (name) => expect(isSecretColumnName(name)).toBe(false));
});
