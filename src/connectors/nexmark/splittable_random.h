// SplittableRandom: a bit-exact reimplementation of java.util.SplittableRandom (SplitMix64).
//
// The Nexmark generator of the nexmark/nexmark repository draws every decision from a
// SplittableRandom; reproducing its algorithm (the seed/gamma update, the two mixing functions and
// the bounded-int rejection loop) means that, for the same seed and the same sequence of calls, our
// generator makes the same decisions as the Java one. It is also cheap: one add and a few
// multiplies per draw, no state beyond two words.
//
// Only the constructor with an explicit seed is provided (its gamma is the golden gamma, as in
// Java's SplittableRandom(long)). The whole state is one word (state()), so a generator can save it
// in a checkpoint and continue with FromState(); Mix64 is exposed for deriving independent seeds.
// Threading: a value type, used by one thread.
#pragma once

#include <cstdint>

namespace sluice {

class SplittableRandom {
 public:
  static constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

  explicit SplittableRandom(int64_t seed) : seed_(static_cast<uint64_t>(seed)) {}

  // The generator's whole state, and a generator that continues from it (the same draws follow).
  uint64_t state() const { return seed_; }
  static SplittableRandom FromState(uint64_t state) { return SplittableRandom(static_cast<int64_t>(state)); }

  // Java nextInt(): a uniformly distributed 32-bit value.
  int32_t NextInt() { return Mix32(NextSeed()); }
  // Java nextLong().
  int64_t NextLong() { return static_cast<int64_t>(Mix64(NextSeed())); }
  // Java nextInt(bound) for bound > 0: uniform in [0, bound), with Java's rejection of the
  // over-represented tail (so the number of draws consumed matches Java's exactly).
  int32_t NextInt(int32_t bound) {
    int32_t r = NextInt();
    const int32_t m = bound - 1;
    if ((bound & m) == 0) return r & m;
    // Java: for (u = r >>> 1; u + m - (r = u % bound) < 0; u = nextInt() >>> 1);
    // The sum overflows on purpose in Java; unsigned arithmetic reproduces the wrap-around.
    uint32_t u = static_cast<uint32_t>(r) >> 1;
    for (;;) {
      r = static_cast<int32_t>(u % static_cast<uint32_t>(bound));
      const int32_t sum = static_cast<int32_t>(u + static_cast<uint32_t>(m) - static_cast<uint32_t>(r));
      if (sum >= 0) return r;
      u = static_cast<uint32_t>(NextInt()) >> 1;
    }
  }
  // Java nextDouble(): uniform in [0, 1) with 53 random bits.
  double NextDouble() { return static_cast<double>(Mix64(NextSeed()) >> 11) * 0x1.0p-53; }

  // SplitMix64's finalizer (Java's mix64): a bijection that scatters nearby inputs.
  static uint64_t Mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t NextSeed() { return seed_ += kGoldenGamma; }
  static int32_t Mix32(uint64_t z) {
    z = (z ^ (z >> 33)) * 0x62a9d9ed799705f5ULL;
    return static_cast<int32_t>(static_cast<uint32_t>(((z ^ (z >> 28)) * 0xcb24d0a5c88c35b3ULL) >> 32));
  }

  uint64_t seed_;
};

}  // namespace sluice
