/// The Redis Functions library `courtside_webhooks` (its own library beside the journal's `courtside`, loaded with
/// `FUNCTION LOAD REPLACE` by `RedisWebhookStore`): the webhook writes that must be atomic across several keys, and
/// the cursor moves and releases under a webhook's lease. The lease itself is taken and renewed with the journal
/// library's `courtside_lease` (the demo's), its token in place of a node id.
///
/// Keys:
/// - `courtside:webhooks`: hash webhook id → record (the server's `Webhook` JSON, the signing secret included);
/// - `courtside:webhook-order`: list of webhook ids in creation order;
/// - `courtside:webhook-cursors:{ID}`: hash game id → the next sequence to deliver;
/// - `courtside:webhook-deliveries:{ID}`: list of the last attempts' JSON, newest first (trimmed);
/// - `courtside:webhook-lease:{ID}`: the holder's token, with an expiry (`SET NX PX`);
/// - `courtside:webhooks-version`: a counter bumped by every change of a record or a replay, which nodes poll.
///
/// Replies are status strings (`OK`, `LEASE`, `MOVED`, `GONE`) or integers, never errors for an expected outcome.
enum RedisWebhookLibrary {
    static let name = "courtside_webhooks"
    /// Bumped with every change of the code below (the store checks it at start-up).
    static let version = 1

    static let source = """
        #!lua name=courtside_webhooks

        -- keys: webhooks, order, cursors, version. args: id, record, creating (1/0), then game, seq pairs. An update of
        -- a webhook that is gone (deleted by another node) stores nothing: `GONE`.
        redis.register_function('courtside_webhook_save', function(keys, args)
          local exists = redis.call('HEXISTS', keys[1], args[1]) == 1
          if args[3] == '1' then
            if not exists then redis.call('RPUSH', keys[2], args[1]) end
          elseif not exists then
            return 'GONE'
          end
          redis.call('HSET', keys[1], args[1], args[2])
          for i = 4, #args - 1, 2 do redis.call('HSET', keys[3], args[i], args[i + 1]) end
          redis.call('INCR', keys[4])
          return 'OK'
        end)

        -- keys: webhooks, order, cursors, deliveries, lease, version. args: id.
        redis.register_function('courtside_webhook_delete', function(keys, args)
          redis.call('HDEL', keys[1], args[1])
          redis.call('LREM', keys[2], 0, args[1])
          redis.call('DEL', keys[3], keys[4], keys[5])
          redis.call('INCR', keys[6])
          return 'OK'
        end)

        -- keys: cursors, version. args: game, seq. A replay: whoever delivers sees the cursor moved at its next advance.
        redis.register_function('courtside_webhook_set_cursor', function(keys, args)
          redis.call('HSET', keys[1], args[1], args[2])
          redis.call('INCR', keys[2])
          return 'OK'
        end)

        -- keys: lease, cursors. args: token, game, expected ('' for none), next. Only the lease's holder moves a
        -- cursor, and only from where it left it: `LEASE` when the token no longer holds the lease (another node
        -- delivers now), `MOVED` when the cursor changed meanwhile (a replay).
        redis.register_function('courtside_webhook_advance', function(keys, args)
          if redis.call('GET', keys[1]) ~= args[1] then return 'LEASE' end
          local stored = redis.call('HGET', keys[2], args[2])
          if (stored or '') ~= args[3] then return 'MOVED' end
          redis.call('HSET', keys[2], args[2], args[4])
          return 'OK'
        end)

        -- keys: lease. args: token. Gives the lease up if the token holds it.
        redis.register_function('courtside_webhook_release', function(keys, args)
          if redis.call('GET', keys[1]) == args[1] then redis.call('DEL', keys[1]) end
          return 'OK'
        end)

        -- keys: deliveries, webhooks. args: id, attempt JSON, how many to keep. Not for a deleted webhook.
        redis.register_function('courtside_webhook_attempt', function(keys, args)
          if redis.call('HEXISTS', keys[2], args[1]) == 0 then return 'GONE' end
          redis.call('LPUSH', keys[1], args[2])
          redis.call('LTRIM', keys[1], 0, tonumber(args[3]) - 1)
          return 'OK'
        end)

        redis.register_function{function_name = 'courtside_webhooks_version',
          callback = function() return \(version) end, flags = {'no-writes'}}
        """
}
