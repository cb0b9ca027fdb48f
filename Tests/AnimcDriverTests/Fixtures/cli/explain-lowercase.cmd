explain e0317
