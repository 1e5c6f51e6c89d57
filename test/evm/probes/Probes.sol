// SPDX-License-Identifier: Apache-2.0
// Contracts for the /contracts/call tests that need no indexed state: each is run as a contract creation (no `to`),
// and its constructor reverts or returns the bytes under test. Compiled by compile.ts into probes.json.
pragma solidity 0.8.37;

/// Reverts with a custom error.
contract Denier {
    error Denied(uint256 code);

    constructor() {
        revert Denied(7);
    }
}

/// Returns (chain id, block number, block timestamp) as three words instead of runtime code.
contract BlockProbe {
    constructor() {
        uint256 id = block.chainid;
        uint256 height = block.number;
        uint256 time = block.timestamp;
        assembly {
            mstore(0, id)
            mstore(32, height)
            mstore(64, time)
            return(0, 96)
        }
    }
}

/// Returns the balance (weibars) of the address it is made with, as one word.
contract BalanceProbe {
    constructor(address who) {
        uint256 weibars = who.balance;
        assembly {
            mstore(0, weibars)
            return(0, 32)
        }
    }
}

/// Reads `balanceOf(who)` of a token contract through a CALL: a contract reading another.
contract TokenReader {
    constructor(address token, address who) {
        (bool ok, bytes memory out) = token.staticcall(abi.encodeWithSignature("balanceOf(address)", who));
        require(ok, "read failed");
        assembly {
            return(add(out, 32), mload(out))
        }
    }
}

/// Calls `target` with `data` (a STATICCALL when `isStatic`, else a CALL) and returns what it returned, or reverts
/// with what it reverted with: a contract calling a token's facade or the token service.
contract Forwarder {
    constructor(address target, bytes memory data, bool isStatic) {
        (bool ok, bytes memory out) = isStatic ? target.staticcall(data) : target.call(data);
        assembly {
            switch ok
            case 0 { revert(add(out, 32), mload(out)) }
            default { return(add(out, 32), mload(out)) }
        }
    }
}
