#include <iostream>

int main() {
  std::cout << "sluice 0.1.0\n";
  return 0;
}
