/// The Redis Functions library (Redis 7, `FUNCTION LOAD REPLACE`) through which every journal write goes. A
/// function runs atomically (no other command runs meanwhile) and is stored with the data (in the AOF and RDB),
/// so it survives a Redis restart; `RedisJournal` loads it at start-up anyway, replacing an older version.
///
/// Keys, with the game id in a hash tag so one game's keys would share a Cluster slot:
/// - `courtside:games`: list of game ids in creation order;
/// - `courtside:game:{ID}`: hash `setup`, `token`, `created`, `metadata`, `archived` (0/1), `archived_at`,
///   `watermark`, `last_seq`, `last_pseq`;
/// - `courtside:events:{ID}`: the game's authoritative log, a stream whose entry ids are `<seq>-0`, fields
///   `p` (presentation sequence), `c` (`=` + command id, or empty), `e` (the event's JSON), `b` and `k` (the first
///   sequence and the size of the batch it was stored in; absent in entries of library versions before 8);
/// - `courtside:cids:{ID}`: hash command id → sequence;
/// - `courtside:feed`: one capped stream for every game (`MAXLEN ~`), for other nodes: one entry per stored batch,
///   fields `g`, `s` (the batch's first sequence), `n` (the writing node), `k` (the batch's size), then `p` and `e`
///   per event; a game's creation is an entry `g`, `s` 0, `p` 0, `n` (no `e`). Before version 8 the feed held one
///   entry per event (`g`, `s`, `p`, `n`, `e`): `RedisFeedTailer` still reads those, each as a batch of one; an
///   archive is an entry `g`, `a` (the instant), `n`;
/// - `courtside:next-game`: the counter behind `courtside_next_id` (game ids unique across nodes);
/// - `courtside:viewers:NODE`, `courtside:viewers`: each node's spectators per game (expiring), and the set of
///   those hashes (`courtside_viewers`);
/// - `courtside:lease:NAME`: a lease (`courtside_lease`), the holding node's id with an expiry (the demo runner's);
/// - `courtside:partition`: hash `index`, `size`: which partition of how many this Redis is (`courtside_partition`);
/// - `courtside:reach:NODE`, `courtside:reach`: each node's last success per partition (expiring), and the set of
///   those hashes (`courtside_reach`, docs/cluster.md "Past one Redis");
/// - `courtside:courts`: list of court ids in creation order; `courtside:court:{ID}`: hash `version`, `record` (the
///   court's JSON), written by `courtside_court_save` only, which also puts an entry `c` (the court), `v`, `r`, `n`
///   in the feed (partition 0's: courts live there);
/// - `courtside:relayed-courts`: list of the ids of courts relayed from venues (docs/relay.md, "Courts");
///   `courtside:relayed-court:{ID}`: hash `version`, `record`, `venue` (the venue's name), written by
///   `courtside_relayed_courts` only, which also puts an entry `c`, `v`, `r`, `y` (the venue), `n` in the feed.
///
/// Refusals are error replies whose first word is a code the journal maps to `JournalError` (`UNKNOWNGAME`,
/// `DUPGAME`, `ARCHIVED`, `SEQUENCE expected got`, `PRESENTATION seq previous got`, `DUPCID index`). The checks and
/// their order are those of `JournalRules`, so SQLite and Redis refuse the same writes. A write that repeats a batch
/// already stored whole and byte for byte (a retry after a lost reply) answers `DUP`: the original answer, stored
/// once; one that repeats only a part of a stored batch is refused like any other write under a stored number.
/// `UPGRADE` refuses a node of an older version (its feed entries would be read as whole batches).
enum RedisJournalLibrary {
    static let name = "courtside"
    /// Bumped with every change of the code below (the journal checks it at start-up).
    static let version = 10

    static let source = """
        #!lua name=courtside

        local function missing(game)
          return redis.call('EXISTS', game) == 0
        end

        -- keys: game, games, feed. args: id, setup, token, created, metadata, feed length, node.
        redis.register_function('courtside_create', function(keys, args)
          if not missing(keys[1]) then
            local stored = redis.call('HMGET', keys[1], 'setup', 'token', 'created', 'metadata')
            if stored[1] == args[2] and stored[2] == args[3] and stored[3] == args[4] and stored[4] == args[5] then
              return 'DUP'
            end
            return redis.error_reply('DUPGAME')
          end
          redis.call('HSET', keys[1], 'setup', args[2], 'token', args[3], 'created', args[4], 'metadata', args[5],
            'archived', '0', 'watermark', '0', 'last_seq', '0', 'last_pseq', '0')
          redis.call('RPUSH', keys[2], args[1])
          -- A creation entry (no event) so other nodes list the game before its first event.
          redis.call('XADD', keys[3], 'MAXLEN', '~', args[6], '*', 'g', args[1], 's', '0', 'p', '0', 'n', args[7])
          return 'OK'
        end)

        -- keys: counter. args: the partition's id prefix (`game-` when absent). The next free `game-N` (or
        -- `game-P-N`): one counter for every node, skipping ids stored before it existed.
        redis.register_function('courtside_next_id', function(keys, args)
          local prefix = args[1] or 'game-'
          while true do
            local id = prefix .. redis.call('INCR', keys[1])
            if redis.call('EXISTS', 'courtside:game:{' .. id .. '}') == 0 then return id end
          end
        end)

        -- keys: game, events, cids, feed. args: id, feed length, node, the format `batch` (a node of an older version
        -- passes the count here: it would write the feed one entry per event, which this version's readers take as
        -- whole batches, so it is refused), count, then per event: seq, pseq, cid, json.
        redis.register_function('courtside_append', function(keys, args)
          if args[4] ~= 'batch' then
            return redis.error_reply('UPGRADE a node of an older version wrote; restart every node with one version')
          end
          local tail = redis.call('HMGET', keys[1], 'archived', 'last_seq', 'last_pseq', 'watermark')
          if not tail[1] then return redis.error_reply('UNKNOWNGAME') end
          local count = tonumber(args[5])
          local last = tonumber(tail[2])
          local first = args[6]
          -- A batch already stored whole and byte for byte is a retry whose reply was lost: answer as the first time.
          -- Whole: each stored event names its batch's first sequence (`b`) and size (`k`), and both must be this
          -- batch's. A batch equal to only a part of a stored one (a node's own time-limit tick, the first event of
          -- another node's batch that also holds a late move) is a conflict: that node reads the stored batch and
          -- shows it whole, rather than half of it under the same number.
          if count > 0 and tonumber(first) + count - 1 <= last then
            local same = true
            for i = 0, count - 1 do
              local seq = args[6 + 4 * i]
              local entry = redis.call('XRANGE', keys[2], seq .. '-0', seq .. '-0')
              local fields = entry[1] and entry[1][2]
              if not fields or fields[2] ~= args[7 + 4 * i] or fields[4] ~= args[8 + 4 * i]
                or fields[6] ~= args[9 + 4 * i] or fields[8] ~= first or fields[10] ~= args[5] then
                same = false
                break
              end
            end
            if same then return 'DUP' end
          end
          if tail[1] == '1' then return redis.error_reply('ARCHIVED') end
          local expected = last + 1
          local previous = math.max(tonumber(tail[3]), tonumber(tail[4]))
          local seen = {}
          for i = 0, count - 1 do
            local seq = tonumber(args[6 + 4 * i])
            local pseq = tonumber(args[7 + 4 * i])
            local cid = args[8 + 4 * i]
            if seq ~= expected then
              return redis.error_reply('SEQUENCE ' .. expected .. ' ' .. seq)
            end
            if pseq < math.max(previous, 0) then
              return redis.error_reply('PRESENTATION ' .. seq .. ' ' .. previous .. ' ' .. pseq)
            end
            if cid ~= '' then
              if seen[cid] or redis.call('HEXISTS', keys[3], cid) == 1 then
                return redis.error_reply('DUPCID ' .. i)
              end
              seen[cid] = true
            end
            expected = expected + 1
            previous = pseq
          end
          if count == 0 then return 'OK' end
          -- One feed entry for the whole batch (its first sequence `s`, its size `k`, then `p` and `e` per event), so
          -- a reader gets a batch in one read or not at all, never cut between two reads.
          local feed = {'XADD', keys[4], 'MAXLEN', '~', args[2], '*', 'g', args[1], 's', first, 'n', args[3],
            'k', args[5]}
          for i = 0, count - 1 do
            local seq = args[6 + 4 * i]
            local cid = args[8 + 4 * i]
            redis.call('XADD', keys[2], seq .. '-0', 'p', args[7 + 4 * i], 'c', cid, 'e', args[9 + 4 * i],
              'b', first, 'k', args[5])
            if cid ~= '' then redis.call('HSET', keys[3], cid, seq) end
            feed[#feed + 1] = 'p'
            feed[#feed + 1] = args[7 + 4 * i]
            feed[#feed + 1] = 'e'
            feed[#feed + 1] = args[9 + 4 * i]
          end
          redis.call(unpack(feed))
          redis.call('HSET', keys[1], 'last_seq', expected - 1, 'last_pseq', previous)
          return 'OK'
        end)

        -- keys: game, feed. args: archived-at, id, feed length, node. The first time only, an entry `g`, `a` (the
        -- instant), `n` in the feed, so every node takes the game off its lobby within a read.
        redis.register_function('courtside_archive', function(keys, args)
          if not keys[2] then
            return redis.error_reply('UPGRADE a node of an older version wrote; restart every node with one version')
          end
          local archived = redis.call('HGET', keys[1], 'archived')
          if not archived then return redis.error_reply('UNKNOWNGAME') end
          if archived == '0' then
            redis.call('HSET', keys[1], 'archived', '1', 'archived_at', args[1])
            redis.call('XADD', keys[2], 'MAXLEN', '~', args[3], '*', 'g', args[2], 'a', args[1], 'n', args[4])
          end
          return 'OK'
        end)

        -- keys: game. args: presentation sequence.
        redis.register_function('courtside_watermark', function(keys, args)
          local watermark = redis.call('HGET', keys[1], 'watermark')
          if not watermark then return redis.error_reply('UNKNOWNGAME') end
          if tonumber(args[1]) > tonumber(watermark) then
            redis.call('HSET', keys[1], 'watermark', args[1])
          end
          return 'OK'
        end)

        -- keys: lease. args: node, milliseconds. Takes the lease when free, renews it when this node holds it:
        -- 1 when the node holds it now, 0 when another node does.
        redis.register_function('courtside_lease', function(keys, args)
          if redis.call('GET', keys[1]) == args[1] then
            redis.call('PEXPIRE', keys[1], args[2])
            return 1
          end
          if redis.call('SET', keys[1], args[1], 'NX', 'PX', args[2]) then return 1 end
          return 0
        end)

        -- What courtside_viewers and courtside_reach share, each node publishing a hash that dies with it: replaces
        -- this node's hash `mine` with `fields` (field, value, …; none leaves no hash), living `ttl` milliseconds and
        -- listed in the set `all`; then calls `fold(field, value)` for every field of every live node's hash (but
        -- `mine` when `others_only`), dropping from the set the hashes that expired.
        local function exchange(mine, all, ttl, fields, others_only, fold)
          redis.call('DEL', mine)
          if #fields > 0 then
            redis.call('HSET', mine, unpack(fields))
            redis.call('PEXPIRE', mine, ttl)
            redis.call('SADD', all, mine)
          end
          for _, key in ipairs(redis.call('SMEMBERS', all)) do
            local hash = redis.call('HGETALL', key)
            if #hash == 0 then redis.call('SREM', all, key) end
            if not (others_only and key == mine) then
              for i = 1, #hash, 2 do fold(hash[i], hash[i + 1]) end
            end
          end
        end

        -- A Lua table as a flat reply of key, value pairs, each pair through `entry(key, value)`.
        local function pairs_reply(map, entry)
          local reply = {}
          for key, value in pairs(map) do
            local k, v = entry(key, value)
            reply[#reply + 1] = k
            reply[#reply + 1] = v
          end
          return reply
        end

        -- keys: this node's viewer hash, the set of viewer hashes. args: milliseconds to live, then game, count
        -- pairs. Replaces this node's counts (they expire with a dead node) and returns every live node's counts
        -- summed per game, as game, count pairs.
        redis.register_function('courtside_viewers', function(keys, args)
          local totals = {}
          exchange(keys[1], keys[2], args[1], {unpack(args, 2)}, false, function(game, count)
            totals[game] = (totals[game] or 0) + tonumber(count)
          end)
          return pairs_reply(totals, function(game, count) return game, count end)
        end)

        -- keys: the partition hash. args: index, size. Claims this Redis as partition `index` of `size`, or checks
        -- the claim: another index is refused (`PARTITION stored-index stored-size`), and so is a smaller size (the
        -- list may only grow); a larger size is recorded.
        redis.register_function('courtside_partition', function(keys, args)
          local stored = redis.call('HMGET', keys[1], 'index', 'size')
          if stored[1] and (stored[1] ~= args[1] or tonumber(stored[2]) > tonumber(args[2])) then
            return redis.error_reply('PARTITION ' .. stored[1] .. ' ' .. stored[2])
          end
          if not stored[1] or tonumber(stored[2]) < tonumber(args[2]) then
            redis.call('HSET', keys[1], 'index', args[1], 'size', args[2])
          end
          return 'OK'
        end)

        -- keys: this node's reach hash, the set of reach hashes. args: milliseconds to live, then partition,
        -- milliseconds since this node last reached it. Stores when this node last reached each partition (by this
        -- Redis's clock, expiring with a dead node) and returns, for every partition another live node reached, the
        -- milliseconds since the most recent of them: partition, age pairs.
        redis.register_function('courtside_reach', function(keys, args)
          local time = redis.call('TIME')
          local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
          local fields = {}
          for i = 2, #args - 1, 2 do
            fields[#fields + 1] = args[i]
            fields[#fields + 1] = now - tonumber(args[i + 1])
          end
          local latest = {}
          exchange(keys[1], keys[2], args[1], fields, true, function(partition, at)
            latest[partition] = math.max(latest[partition] or 0, tonumber(at))
          end)
          return pairs_reply(latest, function(partition, at) return tonumber(partition), math.max(now - at, 0) end)
        end)

        -- Courts (protocol.md "Courts"), kept apart from the games' functions above. keys: court, courts, feed.
        -- args: id, the version the change started from (0: a new court), the court's JSON, the most courts, feed
        -- length, node. Stores the court only if its version is still the one given, so two nodes never overwrite
        -- each other's change: `{'OK', version}`, or `{'CONFLICT', version, json}` (what is stored, to start again
        -- from), or `{'FULL', limit}` for a new court past the limit. A stored change is an entry `c`, `v`, `r`, `n`
        -- in the feed, so every node's court pages follow it within a read.
        redis.register_function('courtside_court_save', function(keys, args)
          local stored = redis.call('HMGET', keys[1], 'version', 'record')
          local version = tonumber(stored[1] or '0')
          if version ~= tonumber(args[2]) then return {'CONFLICT', version, stored[2] or ''} end
          if version == 0 then
            if redis.call('LLEN', keys[2]) >= tonumber(args[4]) then return {'FULL', tonumber(args[4])} end
            redis.call('RPUSH', keys[2], args[1])
          end
          redis.call('HSET', keys[1], 'version', version + 1, 'record', args[3])
          redis.call('XADD', keys[3], 'MAXLEN', '~', args[5], '*', 'c', args[1], 'v', version + 1, 'r', args[3],
            'n', args[6])
          return {'OK', version + 1}
        end)

        -- Courts relayed whole from a venue (relay.md "Courts"), shown read-only by every node. keys: the relayed
        -- courts' list, feed, then each court's hash. args: the venue's name, the most relayed courts, feed length,
        -- node, then each court's id and JSON. A court is stored, one version past the stored one, and put in the
        -- feed only when its JSON or venue differs from what is stored (a venue resends its courts on each
        -- connection). Answers each court's stored version, or 0 for a new court past the limit.
        redis.register_function('courtside_relayed_courts', function(keys, args)
          local versions = {}
          for index = 3, #keys do
            local id, record = args[5 + (index - 3) * 2], args[6 + (index - 3) * 2]
            local stored = redis.call('HMGET', keys[index], 'version', 'record', 'venue')
            local version = tonumber(stored[1] or '0')
            if version == 0 and redis.call('LLEN', keys[1]) >= tonumber(args[2]) then
              version = 0
            elseif stored[2] ~= record or stored[3] ~= args[1] then
              if version == 0 then redis.call('RPUSH', keys[1], id) end
              version = version + 1
              redis.call('HSET', keys[index], 'version', version, 'record', record, 'venue', args[1])
              redis.call('XADD', keys[2], 'MAXLEN', '~', args[3], '*', 'c', id, 'v', version, 'r', record,
                'y', args[1], 'n', args[4])
            end
            versions[#versions + 1] = version
          end
          return versions
        end)

        redis.register_function{function_name = 'courtside_version', callback = function() return \(version) end,
          flags = {'no-writes'}}
        """
}
