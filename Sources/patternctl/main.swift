import PatternCore
print("patternctl")
